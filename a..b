{
  "contents" : [

  ],
  "format" : 1,
  "recipient" : {
    "firstName" : "",
    "lastName" : "",
    "postalAddress" : {
      "city" : "",
      "country" : "",
      "postalCode" : "",
      "street" : ""
    }
  },
  "sender" : {
    "firstName" : "",
    "lastName" : "",
    "postalAddress" : {
      "city" : "",
      "country" : "",
      "postalCode" : "",
      "street" : ""
    }
  }
}
