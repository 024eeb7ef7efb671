/**
 * A flow step's request before its `{{variables}}` are filled in: what stepRequest.ts reads from a
 * RunApi page and pageExamples.ts from a Markdown API page (a file of its own, so neither of those
 * two imports the other's module for it).
 */
export interface StepRow {
  name: string;
  value: string;
}

export interface StepDraft {
  method: string;
  url: string;
  query: StepRow[];
  headers: StepRow[];
  mode: 'form' | 'json';
  fields: StepRow[];
  text: string;
}
