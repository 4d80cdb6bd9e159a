import { randomUUID } from 'node:crypto';
import { Problem } from './problem';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  fieldErrors: Record<string, string[]>;
  generalErrors: string[];
  isValid: false;
}

/** The JSON of a problem; `instance` is a fresh GUID the log line carries too. */
export function problemBody(problem: Problem, publicBaseUrl: string): ProblemBody {
  return {
    type: `${publicBaseUrl.replace(/\/$/, '')}/docs/errors#${problem.anchor}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    instance: randomUUID(),
    fieldErrors: problem.fieldErrors,
    generalErrors: problem.generalErrors,
    isValid: false,
  };
}
