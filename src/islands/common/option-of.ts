/** The one of `options` that a control's text value names (a select's `value`), typed as that option. */
export function optionOf<Option extends string>(
  options: readonly Option[],
  value: string,
): Option | undefined {
  return options.find((option) => option === value);
}
