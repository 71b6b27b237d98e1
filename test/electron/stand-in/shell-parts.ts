// The stand-in tray, menus, images, notifications, power events, dialogs and shell. Each takes the
// arguments Electron's own types declare and refuses what Electron would: an image file that is not
// there (Electron gives an empty image, a blank tray icon), a menu item with neither label nor type,
// a notification option Electron does not know.
import { EventEmitter } from 'node:events';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Dialog, MenuItemConstructorOptions, NativeImage, NotificationConstructorOptions, Shell, Tray } from 'electron';
import { unknownKeys } from './declared-keys.js';
import type { MenuItemState } from './protocol.js';
import { reject, standInEvent } from './recorder.js';

export class StandInImage {
  constructor(readonly path: string) {}
  isEmpty(): boolean {
    return false;
  }
}

export const nativeImage = {
  createFromPath(path: string): StandInImage {
    if (!isAbsolute(path)) reject(`nativeImage.createFromPath needs an absolute path, got "${path}"`);
    if (!existsSync(path) || !statSync(path).isFile()) reject(`nativeImage.createFromPath: no image at ${path} (Electron would show an empty icon)`);
    return new StandInImage(path);
  },
};

function imageOf(value: unknown): StandInImage {
  if (value instanceof StandInImage) return value;
  if (typeof value === 'string') return nativeImage.createFromPath(value);
  return reject('not an image from nativeImage');
}

class StandInMenuItem {
  readonly type: string;
  readonly label: string;
  readonly enabled: boolean;
  checked: boolean;
  private readonly click: MenuItemConstructorOptions['click'];

  constructor(options: MenuItemConstructorOptions) {
    const unknown = unknownKeys(options, 'MenuItemConstructorOptions');
    if (unknown.length > 0) reject(`menu item options Electron does not know: ${unknown.join(', ')}`);
    if (options.label === undefined && options.role === undefined && options.type === undefined)
      reject('Invalid template for MenuItem: must have at least one of label, role or type');
    this.type = options.type ?? 'normal';
    if (!['normal', 'separator', 'submenu', 'checkbox', 'radio'].includes(this.type)) reject(`menu item type "${this.type}" is not one of Electron's`);
    this.label = options.label ?? '';
    this.enabled = options.enabled ?? true;
    this.checked = options.checked ?? false;
    this.click = options.click;
  }

  /** A user's click: nothing when disabled; a checkbox flips before its handler runs (Electron's order). */
  activate(): void {
    // A person cannot click these: the test asked for something impossible (not the app's fault).
    if (!this.enabled || this.type === 'separator') throw new Error(`"${this.label}" cannot be clicked (disabled or a separator)`);
    if (this.type === 'checkbox') this.checked = !this.checked;
    // The handler's parameters are Electron's MenuItem, window and keyboard event; the app reads
    // only `checked` from the item. Called through Reflect: the stand-in item is not a MenuItem.
    if (this.click !== undefined) Reflect.apply(this.click, undefined, [this, undefined, standInEvent({})]);
  }

  state(): MenuItemState {
    return { type: this.type, label: this.label, enabled: this.enabled, checked: this.checked };
  }
}

export class StandInMenu {
  constructor(readonly items: StandInMenuItem[]) {}
  static buildFromTemplate(template: MenuItemConstructorOptions[]): StandInMenu {
    return new StandInMenu(template.map((o) => new StandInMenuItem(o)));
  }
}

type TrayApi = Pick<Tray, 'setImage' | 'setToolTip' | 'setContextMenu' | 'destroy' | 'isDestroyed'>;

export class StandInTray extends EventEmitter implements TrayApi {
  static current: StandInTray | null = null;
  static readonly images: string[] = [];
  image: StandInImage;
  tooltip = '';
  menu: StandInMenu | null = null;
  private destroyed = false;

  constructor(image: NativeImage | string) {
    super();
    this.image = imageOf(image);
    StandInTray.images.push(this.image.path);
    StandInTray.current = this;
  }

  setImage(image: NativeImage | string): void {
    this.alive('setImage');
    const next = imageOf(image);
    if (next.path !== this.image.path) StandInTray.images.push(next.path);
    this.image = next;
  }

  setToolTip(toolTip: string): void {
    this.alive('setToolTip');
    this.tooltip = toolTip;
  }

  setContextMenu(menu: unknown): void {
    this.alive('setContextMenu');
    if (menu !== null && !(menu instanceof StandInMenu)) reject('setContextMenu takes a Menu');
    this.menu = menu;
  }

  destroy(): void {
    this.destroyed = true;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  click(label: string): void {
    const item = this.menu?.items.find((i) => i.label === label);
    if (item === undefined) throw new Error(`the tray menu has no "${label}": ${this.menu?.items.map((i) => i.label).join(' | ') ?? 'no menu'}`);
    item.activate();
  }

  private alive(what: string): void {
    if (this.destroyed) reject(`Tray.${what} after destroy()`);
  }
}

export class StandInNotification extends EventEmitter {
  static readonly shown: Array<{ title: string; body: string; urgency: string; icon: string }> = [];
  constructor(private readonly options: NotificationConstructorOptions = {}) {
    super();
    const unknown = unknownKeys(options, 'NotificationConstructorOptions');
    if (unknown.length > 0) reject(`Notification options Electron does not know: ${unknown.join(', ')}`);
    if (options.icon !== undefined) imageOf(options.icon);
  }

  static isSupported(): boolean {
    return true;
  }

  show(): void {
    const icon = this.options.icon;
    StandInNotification.shown.push({
      title: this.options.title ?? '',
      body: this.options.body ?? '',
      urgency: this.options.urgency ?? 'normal',
      icon: icon === undefined ? '' : imageOf(icon).path,
    });
  }
}

/** Electron's powerMonitor: its events (suspend, resume, shutdown) and whether the machine runs on
 *  battery, which a test sets (`onBattery`) as a laptop would change it. */
class StandInPowerMonitor extends EventEmitter {
  // A laptop can start unplugged: SANAD_STAND_IN_ON_BATTERY=1 at launch.
  onBattery = process.env.SANAD_STAND_IN_ON_BATTERY === '1';
  isOnBatteryPower(): boolean {
    return this.onBattery;
  }
}
export const powerMonitor = new StandInPowerMonitor();

export interface MessageBoxShown {
  type: string;
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  answered: number;
}
export const dialogs: { errorBoxes: Array<{ title: string; content: string }>; messageBoxes: MessageBoxShown[]; saved: string[] } = {
  errorBoxes: [],
  messageBoxes: [],
  saved: [],
};

/** The person's answers, set by the test at launch: the button pressed in each message box (by
 *  index, in order; then the box's cancelId), and the file a save dialog picks (else cancelled). */
const answers = (process.env.SANAD_STAND_IN_MESSAGE_BOX_ANSWERS ?? '')
  .split(',')
  .filter((a) => a !== '')
  .map(Number);

type MessageBoxOptions = import('electron').MessageBoxOptions;

function isMessageBoxOptions(value: unknown): value is MessageBoxOptions {
  return typeof value === 'object' && value !== null && 'message' in value && typeof value.message === 'string';
}

function messageBox(options: MessageBoxOptions): { response: number; checkboxChecked: boolean } {
  const unknown = unknownKeys(options, 'MessageBoxOptions');
  if (unknown.length > 0) reject(`dialog.showMessageBox: Electron knows no option ${unknown.join(', ')}`);
  const buttons = options.buttons ?? ['OK'];
  const answered = answers.shift() ?? options.cancelId ?? 0;
  if (answered < 0 || answered >= buttons.length) reject(`the test answered button ${answered}, and the box has ${buttons.length}`);
  dialogs.messageBoxes.push({
    type: options.type ?? 'none',
    title: options.title ?? '',
    message: options.message,
    detail: options.detail ?? '',
    buttons,
    answered,
  });
  process.stderr.write(`stand-in Electron: message box "${options.title ?? ''}": ${options.message} → ${buttons[answered] ?? '?'}\n`);
  return { response: answered, checkboxChecked: false };
}

export const dialog: Pick<Dialog, 'showErrorBox'> & {
  showOpenDialog(...args: unknown[]): Promise<{ canceled: boolean; filePaths: string[] }>;
  showMessageBox(windowOrOptions: unknown, options?: MessageBoxOptions): Promise<{ response: number; checkboxChecked: boolean }>;
  showSaveDialog(options: { title?: string; defaultPath?: string }): Promise<{ canceled: boolean; filePath: string }>;
} = {
  showErrorBox(title: string, content: string): void {
    dialogs.errorBoxes.push({ title, content });
    process.stderr.write(`stand-in Electron: error box "${title}": ${content}\n`);
  },
  // The user cancels every file dialog: no test picks a file through the native dialog.
  showOpenDialog: async (..._args: unknown[]) => ({ canceled: true, filePaths: [] }),
  showMessageBox: async (windowOrOptions, options) => {
    // Electron's two forms: (options) and (window, options).
    if (options !== undefined) return messageBox(options);
    if (!isMessageBoxOptions(windowOrOptions)) return reject('dialog.showMessageBox needs its options (with a message)');
    return messageBox(windowOrOptions);
  },
  showSaveDialog: async (options) => {
    const path = process.env.SANAD_STAND_IN_SAVE_PATH;
    if (path === undefined || path === '') return { canceled: true, filePath: '' };
    if (options.defaultPath !== undefined && !isAbsolute(options.defaultPath))
      reject(`dialog.showSaveDialog: defaultPath should be absolute, got "${options.defaultPath}"`);
    dialogs.saved.push(path);
    return { canceled: false, filePath: path };
  },
};

export const opened: { external: string[]; folders: string[] } = { external: [], folders: [] };

export const shell: Pick<Shell, 'openExternal' | 'showItemInFolder'> = {
  openExternal: async (url: string) => {
    new URL(url);
    opened.external.push(url);
  },
  showItemInFolder: (path: string) => {
    opened.folders.push(path);
  },
};
