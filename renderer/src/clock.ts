// The GUI's one reader of the wall clock (the lint rule bans Date.now() elsewhere): countdowns and
// "5 minutes ago" compare the browser's time with times the core sent.
export const browserNow = (): number => Date.now();
