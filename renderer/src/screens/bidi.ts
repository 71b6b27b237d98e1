// Paths and other left-to-right values inside translated sentences: wrapped in Unicode isolates
// (FSI … PDI) so an Arabic sentence does not reorder "/home/me/x" into "home/me/x/".
export function isolate(value: string): string {
  return `\u2068${value}\u2069`;
}
