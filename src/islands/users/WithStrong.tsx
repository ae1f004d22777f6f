/**
 * A message with one value in bold wherever the language puts it ('Are you sure you want to delete
 * **ann**?', 'Weet u zeker dat u **ann** wilt verwijderen?'): the message is built around a marker
 * and split there.
 */
const MARKER = '\u0000';

export function WithStrong({
  message,
  value,
}: {
  message: (value: string) => string;
  value: string;
}) {
  const [before, after] = message(MARKER).split(MARKER);
  return (
    <>
      {before}
      <strong>{value}</strong>
      {after}
    </>
  );
}
