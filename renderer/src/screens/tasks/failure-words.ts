// A task's failure (the API's `{code, message}`, with the message in English) in the reader's words.
// The codes are the contract's catalog (src/contract/error-codes.ts): renaming one breaks this build.
import type { ErrorCode } from '../../../../src/contract/error-codes';
const FAILURES = [
  'server_restarted',
  'context_length_exceeded',
  'model_not_found',
  'engine_error',
  'previous_response_not_found',
  'conversation_not_found',
  'invalid_json_schema',
  'output_schema_mismatch',
  'max_output_tokens_too_large',
  'model_missing',
] as const satisfies readonly ErrorCode[];
type Failure = (typeof FAILURES)[number];
const isFailure = (code: string): code is Failure => FAILURES.some((f) => f === code);

/** A task's failure in the reader's words: English readers get the server's own sentence (it names
 *  counts and ids); others the sentence for its code, when Sanad knows the code. */
export function failureWords(error: { code: string; message: string }, language: string, t: (key: `failure_${Failure}`) => string): string {
  return language !== 'en' && isFailure(error.code) ? t(`failure_${error.code}`) : error.message;
}
