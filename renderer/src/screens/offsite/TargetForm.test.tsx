import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ApiError } from '../../api/http';
import { addBody, draftFrom, emptyDraft, FIELDS, fieldForParam, patchBody, type TargetDraft } from './target-form';
import type { Repository } from './api';
import { TargetForm } from './TargetForm';

afterEach(cleanup);

const NAS: Repository = {
  name: 'nas',
  type: 'rest',
  location: 'http://nas.local:8000/sanad',
  options: { user: 'me' },
  enabled: true,
  created_at: 1_800_000_000,
  last_ok_at: null,
  last_error: null,
  last_error_at: null,
  has_secret: true,
};

describe('target form rules (pure)', () => {
  test('each type has its own fields', () => {
    expect(FIELDS.s3).toEqual(['name', 'location', 'region', 'access_key_id', 'secret', 'cacert']);
    expect(FIELDS.rest).toEqual(['name', 'location', 'user', 'secret', 'cacert']);
    expect(FIELDS.rclone).toEqual(['name', 'location', 'rclone_config']);
    expect(FIELDS.folder).toEqual(['name', 'location']);
  });

  test("a folder target is edited as one, and its disk (the server's to find) is never sent back", () => {
    const usb: Repository = {
      ...NAS,
      name: 'usb',
      type: 'folder',
      location: '/media/me/disk/sanad',
      options: { mount_point: '/media/me/disk' },
      has_secret: false,
      connected: false,
    };
    const draft = draftFrom(usb);
    expect(draft.type).toBe('folder');
    expect(patchBody(draft)).toEqual({ location: '/media/me/disk/sanad', options: {}, enabled: true });
    expect(draftFrom({ ...usb, type: 'tape' }).type).toBe('s3');
  });

  test('bodies carry only the filled fields of the chosen type; an edit sends a secret only when typed', () => {
    const draft = { ...emptyDraft('rest'), name: ' nas ', location: 'http://h:1/', user: 'me', region: 'left over from s3', access_key_id: '', secret: 'pw' };
    expect(addBody(draft)).toEqual({ name: 'nas', type: 'rest', location: 'http://h:1/', options: { user: 'me' }, secret: 'pw' });
    expect(addBody({ ...draft, type: 'rclone', location: 'backup:x' })).toEqual({ name: 'nas', type: 'rclone', location: 'backup:x', options: {} });
    const edit = draftFrom(NAS);
    expect(edit.secret).toBe('');
    expect(patchBody(edit)).toEqual({ location: NAS.location, options: { user: 'me' }, enabled: true });
    expect(patchBody({ ...edit, secret: 'new' }).secret).toBe('new');
  });

  test('server params map to fields', () => {
    expect(fieldForParam('url')).toBe('location');
    expect(fieldForParam('remote')).toBe('location');
    expect(fieldForParam('options.region')).toBe('region');
    expect(fieldForParam('access_key_id')).toBe('access_key_id');
    expect(fieldForParam('secret')).toBe('secret');
    expect(fieldForParam('options.endpoint')).toBeNull();
    expect(fieldForParam(null)).toBeNull();
  });
});

const labels = () => Array.from(document.querySelectorAll('label')).map((l) => l.textContent);

describe('TargetForm', () => {
  test('the fields change with the type, and what was typed in a shared field stays', () => {
    render(<TargetForm mode="add" initial={emptyDraft()} busy={false} error={null} onSubmit={() => undefined} />);
    expect(labels()).toEqual(['Type', 'Name', 'Bucket URL', 'Region', 'Access key ID', 'Secret access key', 'CA certificate file']);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'nas' } });
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'rest' } });
    expect(labels()).toEqual(['Type', 'Name', 'Server URL', 'User', 'Password', 'CA certificate file']);
    expect(screen.getByLabelText<HTMLInputElement>('Password').type).toBe('password');
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'rclone' } });
    expect(labels()).toEqual(['Type', 'Name', 'rclone remote and path', 'rclone config file']);
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('nas');
  });

  test('a server error naming a field is shown under that field, linked to it, and nowhere else', () => {
    const error = new ApiError(400, 'invalid_request_error', 'invalid_request_error', 'A REST URL starts with http:// or https://.', 'url');
    render(<TargetForm mode="add" initial={emptyDraft('rest')} busy={false} error={error} onSubmit={() => undefined} />);
    const input = screen.getByLabelText('Server URL');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain('A REST URL starts with http:// or https://.');
    expect(screen.getByTestId('field-location').textContent).toContain('A REST URL starts with');
    expect(document.querySelector('.error-note')).toBeNull();
    expect(document.querySelectorAll('[aria-invalid="true"]')).toHaveLength(1);
  });

  test('an options.* param lands on its option; an error without a field (or for a field not shown) goes above the buttons', () => {
    const onUser = new ApiError(400, 'invalid_request_error', 'x', 'Invalid value for options.user: too long.', 'options.user');
    const { rerender } = render(<TargetForm mode="add" initial={emptyDraft('rest')} busy={false} error={onUser} onSubmit={() => undefined} />);
    expect(screen.getByTestId('field-user').textContent).toContain('too long');
    const general = new ApiError(409, 'conflict_error', 'backup_running', 'A backup is running; change the target when it has finished.', null);
    rerender(<TargetForm mode="add" initial={emptyDraft('rest')} busy={false} error={general} onSubmit={() => undefined} />);
    expect(document.querySelector('.error-note')?.textContent).toContain('A backup is running');
    expect(document.querySelectorAll('[aria-invalid="true"]')).toHaveLength(0);
    const elsewhere = new ApiError(400, 'invalid_request_error', 'x', 'An S3 repository needs an access key id.', 'access_key_id');
    rerender(<TargetForm mode="add" initial={emptyDraft('rest')} busy={false} error={elsewhere} onSubmit={() => undefined} />);
    expect(document.querySelector('.error-note')?.textContent).toContain('access key id');
  });

  test('an edit never shows the secret: the field is blank, says it is stored, and blank is sent as "keep"', () => {
    const onSubmit = vi.fn<(draft: TargetDraft) => void>();
    render(<TargetForm mode="edit" initial={draftFrom(NAS)} hasSecret busy={false} error={null} onSubmit={onSubmit} />);
    expect(screen.queryByLabelText('Name')).toBeNull();
    const secret = screen.getByLabelText<HTMLInputElement>('Password');
    expect(secret.value).toBe('');
    expect(screen.getByTestId('field-secret').textContent).toContain('Leave blank to keep it');
    fireEvent.click(screen.getByLabelText('Use this target for backups'));
    fireEvent.click(screen.getByTestId('target-submit'));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const submitted = onSubmit.mock.calls[0]?.[0];
    expect(submitted).toBeDefined();
    const sent = submitted && patchBody(submitted);
    expect(sent).toEqual({ location: NAS.location, options: { user: 'me' }, enabled: false });
  });
});
