// A translated sentence whose commands, examples and placeholders are in backticks: those parts are
// shown as code (left to right, never translated), the rest as the sentence of the language.
import { Fragment } from 'react';

export function WithCode({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} dir="ltr" translate="no">
            {part}
          </code>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
