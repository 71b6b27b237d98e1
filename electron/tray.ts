// The tray icon: draws a TrayModel (logic/tray-model.ts decides everything) and routes its menu to
// the actions main.ts gives it. Icons are build/icons/tray-<state>.png (+ @2x for HiDPI).
import { Menu, nativeImage, Tray, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import { join } from 'node:path';
import type { TrayMenuId, TrayMenuItem, TrayModel, TrayState } from './logic/tray-model.js';

export type TrayActions = Record<TrayMenuId, (checked: boolean) => void>;

export class TrayIcon {
  private readonly tray: Tray;
  private readonly images = new Map<TrayState, NativeImage>();

  constructor(
    private readonly iconDir: string,
    private readonly actions: TrayActions,
  ) {
    this.tray = new Tray(this.image('warning'));
    // Windows and most Linux trays: a click opens the window (the menu is on right click).
    this.tray.on('click', () => actions.open(false));
  }

  update(model: TrayModel): void {
    this.tray.setImage(this.image(model.state));
    this.tray.setToolTip(model.tooltip);
    this.tray.setContextMenu(Menu.buildFromTemplate(model.menu.map((item) => this.item(item))));
  }

  destroy(): void {
    this.tray.destroy();
  }

  private image(state: TrayState): NativeImage {
    let image = this.images.get(state);
    if (image === undefined) {
      image = nativeImage.createFromPath(join(this.iconDir, `tray-${state}.png`));
      this.images.set(state, image);
    }
    return image;
  }

  private item(item: TrayMenuItem): MenuItemConstructorOptions {
    if (item.type === 'separator') return { type: 'separator' };
    const action = this.actions[item.id];
    return item.type === 'checkbox'
      ? { type: 'checkbox', label: item.label, enabled: item.enabled, checked: item.checked, click: (menuItem) => action(menuItem.checked) }
      : { type: 'normal', label: item.label, enabled: item.enabled, click: () => action(false) };
  }
}
