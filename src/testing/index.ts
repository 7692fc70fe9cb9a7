// `autohedge/testing`: test doubles for code built on autohedge, kept out of the main entry.
export { ScriptedModel, type RecordedRequest, type ScriptedStep, type ScriptedTurn } from './scripted-model.js';
export { decisionFixture, planFor, type PlanTexts } from './fixtures.js';
