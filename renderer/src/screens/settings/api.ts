// What the Settings screen reads and writes through the admin API: the wire contract's schemas
// (src/contract/), and its queries. Keys name this screen so other screens' entries are never shared.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/http';
import { SettingsSchema, type Settings as SettingsValues } from '../../../../src/contract/settings';
import { AdminStatus } from '../../../../src/contract/status';

export { DiagnosticList } from '../../../../src/contract/diagnostics';
export { LanStatus } from '../../../../src/contract/lan';
export { KitConfirmed, RecoveryKit, RotationReport } from '../../../../src/contract/secrets';
export { ON_RESTART, OnRestart } from '../../../../src/contract/tasks';
/** Every setting (GET and PATCH /admin/settings answer all of them); this screen edits a few. */
export const Settings = SettingsSchema;
export type Settings = SettingsValues;

export const SETTINGS_KEY = ['settings', 'settings-screen'] as const;

export const useSettings = () => useQuery({ queryKey: SETTINGS_KEY, queryFn: () => api('GET', '/admin/settings', Settings) });

export const useKitStatus = () => useQuery({ queryKey: ['status', 'settings-screen'], queryFn: () => api('GET', '/admin/status', AdminStatus) });
