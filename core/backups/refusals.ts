// A backup's refusals: one sentence for the answer, on the field it is about.
import { fieldErrorOf, problem, ValidationError, type DetailsArg, type ErrorCode } from '../errors.js';

/** One field's refusal, said as the answer's own message (not 驗證錯誤 with a list of one). */
export function fieldRefusal<C extends ErrorCode>(field: string, code: C, ...details: DetailsArg<C>): ValidationError {
  const p = problem(code, ...details);
  return new ValidationError([fieldErrorOf(field, p)], p);
}

/** The file is refused: the sentence says why. */
export function refusal<C extends ErrorCode>(code: C, ...details: DetailsArg<C>): ValidationError {
  return fieldRefusal('file', code, ...details);
}
