// A run's id in a path (/admin/runs/{id}, /admin/restore/{id}): a positive whole number, or 0, which
// no run has, so the route answers its own 404 for anything else (an old restore's `restore_…` id).
export function runIdParam(text: string): number {
  const id = Number(text);
  return /^[1-9][0-9]{0,15}$/.test(text) && Number.isSafeInteger(id) ? id : 0;
}
