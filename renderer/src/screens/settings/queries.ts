// The Settings screen's queries; keys name this screen so other screens' schemas never share them.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/http';
import { KitStatus, Settings } from './schemas';

export const SETTINGS_KEY = ['settings', 'settings-screen'] as const;

export const useSettings = () => useQuery({ queryKey: SETTINGS_KEY, queryFn: () => api('GET', '/admin/settings', Settings) });

export const useKitStatus = () => useQuery({ queryKey: ['status', 'settings-screen'], queryFn: () => api('GET', '/admin/status', KitStatus) });
