// Every path inside a data dir, named once. Code that reads or writes a file in a data dir asks
// this module where it is; nothing else joins names onto a data dir, so a renamed file or folder
// is one change here and a reader can see the whole layout in one place:
//
//   sanad.db                the store (SQLite, WAL)
//   deletions.jsonl         what was deleted for good (history/deletions-stay-deleted)
//   service.json            where a running service listens (not a secret)
//   instance.lock           held by the one process that owns the data dir
//   secrets-location.json   which keychain holds this data dir's secrets (no secret in it)
//   models/                 model files the hub pulled or the user added
//   runs/<id>.lock          held while run <id> works (its owner is alive)
//   backups/                backup.lock, last-good.json, staging/, cache/ (restic's), restic/
//   drills/                 a drill's scratch folders
//   history/                the time machine's copies of generations
import { join } from 'node:path';

export const STORE_FILE = 'sanad.db';
export const JOURNAL_FILE = 'deletions.jsonl';
export const SERVICE_FILE = 'service.json';
export const LOCATION_FILE = 'secrets-location.json';
const BACKUPS = 'backups';

export const storePath = (dataDir: string): string => join(dataDir, STORE_FILE);
export const journalPath = (dataDir: string): string => join(dataDir, JOURNAL_FILE);
export const serviceFilePath = (dataDir: string): string => join(dataDir, SERVICE_FILE);
export const instanceLockPath = (dataDir: string): string => join(dataDir, 'instance.lock');
export const secretsLocationPath = (dataDir: string): string => join(dataDir, LOCATION_FILE);
export const modelsDir = (dataDir: string): string => join(dataDir, 'models');
export const runLockPath = (dataDir: string, id: number): string => join(dataDir, 'runs', `${id}.lock`);
export const backupsDir = (dataDir: string): string => join(dataDir, BACKUPS);
export const backupLockPath = (dataDir: string): string => join(dataDir, BACKUPS, 'backup.lock');
export const lastGoodPath = (dataDir: string): string => join(dataDir, BACKUPS, 'last-good.json');
export const stagingDir = (dataDir: string): string => join(dataDir, BACKUPS, 'staging');
/** restic's cache: every restic this data dir runs shares it. */
export const resticCacheDir = (dataDir: string): string => join(dataDir, BACKUPS, 'cache');
/** Where the first local repository goes unless the user picks another place. */
export const defaultLocalRepository = (dataDir: string): string => join(dataDir, BACKUPS, 'restic');
export const drillsDir = (dataDir: string): string => join(dataDir, 'drills');
export const historyDir = (dataDir: string): string => join(dataDir, 'history');
