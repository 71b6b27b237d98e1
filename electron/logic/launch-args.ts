// The command line of a launch. `--hidden` starts in the tray without a window: that is how the
// start-at-login entry launches Sanad (login-item.ts), so logging in does not throw a window at the
// user. A second launch (the single-instance lock sends its argv to the first) always shows the
// window: someone clicked the app icon and wants to see it.
export const HIDDEN_FLAG = '--hidden';

export interface LaunchOptions {
  hidden: boolean;
}

export function parseLaunchArgs(argv: readonly string[], openedAtLogin = false): LaunchOptions {
  return { hidden: openedAtLogin || argv.includes(HIDDEN_FLAG) };
}
