// Devices on the network: the Clients screen shows where each one last called from (a phone on
// the home network, the desktop itself), so a device the user does not know stands out.
import type { Migration } from './migration.js';

export const clientAddresses: Migration = {
  version: 12,
  name: '0012-client-addresses',
  up(db) {
    // Both tables keep the same columns in the same order (clients.ts reads them with UNION ALL).
    db.exec('ALTER TABLE clients ADD COLUMN last_address TEXT; ALTER TABLE temporary_clients ADD COLUMN last_address TEXT;');
  },
};
