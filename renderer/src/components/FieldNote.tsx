// An error shown under the field it belongs to, linked to the input by id (aria-describedby). The
// form may give its own words for the field (translated, saying the allowed values); otherwise the
// server's sentence is shown, as ErrorNote words it.
import { useErrorText } from './ErrorNote';

export function FieldNote({ id, error, text }: { id: string; error: unknown; text?: string }) {
  const words = useErrorText();
  if (error === null || error === undefined) return null;
  return (
    <div id={id} className="field-error" role="alert">
      {text ?? words(error)}
    </div>
  );
}
