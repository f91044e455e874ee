/// Every scenario, in the order they run.
enum StressScenarios {
  static var all: [StressScenario] {
    ValueScenarios.all + ObservationScenarios.all + ChainScenarios.all + ToManyScenarios.all
      + SubjectScenarios.all + SubjectHandoverScenarios.all + SubjectScaleScenarios.all
      + OperatorScenarios.all + SchedulerOrderScenarios.all
      + SequencingScenarios.all + BindingScenarios.all
      + BindingRoundScenarios.all + BindingCancelScenarios.all + BindingActorScenarios.all
      + BindingReleaseScenarios.all
      + KeyValuePublisherScenarios.all
      + ElementScenarios.all + ElementRegistrationScenarios.all + AggregateScenarios.all
      + IndexedAccessorScenarios.all
      + DeclarationScenarios.all
      + KeyValueCodingScenarios.all + ClassicObserverScenarios.all + ForwardedPathScenarios.all
      + ManualNotificationScenarios.all + SeveralKeyPathsScenarios.all
      + AsyncValuesScenarios.all + ObservableBoxScenarios.all + SwiftObservationScenarios.all
      + FoundInputsScenarios.all + LostUpdateScenarios.all + InPlaceMutationScenarios.all
  }
}
