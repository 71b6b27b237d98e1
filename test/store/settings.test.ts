// Settings (table `service_config`): defaults, validation before any write, and a stored value
// that is unreadable falls back to its own default without taking the others with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore, type Db } from '../../src/store/open.js';
import { readConfigValue, readSettings, SettingsSchema, writeConfigValue, writeSettings, type Settings } from '../../src/store/settings.js';

const DEFAULTS: Settings = {
  default_on_restart: 'fail',
  retention_days: 30,
  idempotency_ttl_hours: 24,
  max_concurrent_generations: 4,
  model_idle_unload_seconds: 300,
  model_memory_budget_mb: null,
  max_seconds_per_output_token: 10,
  max_output_tokens_limit: 8192,
  requests_per_minute_per_client: 1200,
  max_streams_per_client: 32,
  max_queued_tasks_per_client: 256,
  max_connections: 1024,
  backup_interval_hours: 1,
  backup_time_of_day: null,
  backup_skip_on_battery: false,
  backup_skip_on_metered: false,
  backup_paused: false,
  retention_keep_hourly: 24,
  retention_keep_daily: 30,
  retention_keep_weekly: 8,
  retention_keep_monthly: 12,
  lan_enabled: false,
  lan_port: 7438,
  allowed_origins: [],
  offsite_copy_destination: null,
  offsite_copy_keep: 7,
  offsite_copy_rclone_config: null,
  offsite_stall_seconds: 300,
  offsite_retries: 2,
  offsite_retry_backoff_seconds: 15,
  drill_paused: false,
  drill_read_subset_total: 8,
  pulled_models_backup: 'include',
  language: null,
  update_feed_url: null,
};

function withDb(fn: (db: Db) => void): void {
  const db = openStore(':memory:');
  try {
    fn(db);
  } finally {
    db.close();
  }
}

function rows(db: Db): Array<{ key: string; value: string }> {
  return db.prepare<[], { key: string; value: string }>('SELECT key, value FROM service_config ORDER BY key').all();
}

test('an empty store reads the documented defaults', () => {
  withDb((db) => {
    assert.deepEqual(readSettings(db), DEFAULTS);
    assert.deepEqual(SettingsSchema.parse({}), DEFAULTS);
  });
});

test('a valid patch is stored as JSON for its keys only and read back', () => {
  withDb((db) => {
    const next = writeSettings(db, { retention_days: 7, default_on_restart: 'resume' }, 100);
    assert.deepEqual(next, { ...DEFAULTS, retention_days: 7, default_on_restart: 'resume' });
    assert.deepEqual(rows(db), [
      { key: 'default_on_restart', value: '"resume"' },
      { key: 'retention_days', value: '7' },
    ]);
    assert.deepEqual(readSettings(db), next);
    writeSettings(db, { retention_days: 8 }, 200);
    assert.equal(readSettings(db).retention_days, 8);
    assert.equal(readSettings(db).default_on_restart, 'resume', 'an earlier setting survives a later patch');
  });
});

test('an invalid value is refused before anything is written', () => {
  withDb((db) => {
    writeSettings(db, { retention_days: 10 }, 1);
    const before = rows(db);
    const bad: Array<Record<string, unknown>> = [
      { retention_days: 0 },
      { retention_days: 3651 },
      { retention_days: 1.5 },
      { idempotency_ttl_hours: 0 },
      { max_concurrent_generations: 17 },
      { model_idle_unload_seconds: 5 },
      { max_output_tokens_limit: 15 },
      { requests_per_minute_per_client: 9 },
      { default_on_restart: 'sometimes' },
      { retention_days: '30' },
      // An update feed: HTTPS, or plain HTTP on this computer only; never credentials in the URL.
      { update_feed_url: 'http://updates.example.com/sanad/' },
      { update_feed_url: 'ftp://updates.example.com/' },
      { update_feed_url: 'https://user:pw@updates.example.com/' },
      { update_feed_url: 'updates.example.com' },
    ];
    for (const patch of bad) {
      // The patch is untyped, as an admin route body is in production.
      assert.throws(() => writeSettings(db, patch, 2), Error, JSON.stringify(patch));
      assert.deepEqual(rows(db), before, `nothing written for ${JSON.stringify(patch)}`);
    }
    // A valid key beside an invalid one is not written either: the patch is all or nothing.
    assert.throws(() => writeSettings(db, { retention_days: 20, max_concurrent_generations: 0 }, 3));
    assert.equal(readSettings(db).retention_days, 10);
    writeSettings(db, { update_feed_url: 'http://127.0.0.1:8080/feed/' }, 4);
    writeSettings(db, { update_feed_url: 'https://updates.example.com/sanad/' }, 5);
    assert.equal(readSettings(db).update_feed_url, 'https://updates.example.com/sanad/');
  });
});

test('identity values live beside settings without disturbing them', () => {
  withDb((db) => {
    writeConfigValue(db, 'instance_id', 'inst_123', 1);
    writeSettings(db, { retention_days: 12 }, 1);
    assert.equal(readConfigValue(db, 'instance_id'), 'inst_123');
    assert.equal(readConfigValue(db, 'nope'), undefined);
    assert.equal(readSettings(db).retention_days, 12);
    writeConfigValue(db, 'instance_id', 'inst_456', 2);
    assert.equal(readConfigValue(db, 'instance_id'), 'inst_456');
  });
});

test('an unreadable stored value falls back to its own default and keeps the other settings', () => {
  withDb((db) => {
    writeSettings(db, { retention_days: 90, default_on_restart: 'retry' }, 1);
    // A hand-edited or damaged row: not JSON, and another out of range.
    db.prepare("INSERT INTO service_config(key, value, updated_at) VALUES ('idempotency_ttl_hours', 'not json', 1)").run();
    db.prepare("INSERT INTO service_config(key, value, updated_at) VALUES ('max_concurrent_generations', '99', 1)").run();
    const s = readSettings(db);
    assert.equal(s.idempotency_ttl_hours, DEFAULTS.idempotency_ttl_hours);
    assert.equal(s.max_concurrent_generations, DEFAULTS.max_concurrent_generations);
    assert.equal(s.retention_days, 90, 'a valid setting is not lost because another one is damaged');
    assert.equal(s.default_on_restart, 'retry');
  });
});
