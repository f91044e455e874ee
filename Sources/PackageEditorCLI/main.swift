print(Banner.text)
