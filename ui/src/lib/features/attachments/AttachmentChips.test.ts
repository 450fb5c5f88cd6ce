import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import AttachmentChips from './AttachmentChips.svelte';
import { Attachments } from './attachments.svelte';
import { ApiError } from '../../ui-error';
import type { FileCheck, Upload, UploadProgress } from '../../api';

const check = (name: string, over: Partial<FileCheck> = {}): FileCheck => ({
  path: `/home/ada/${name}`, name, size: 2000, recognised: true, refusal: null, ...over,
});
const stored = (name: string): Upload => ({ path: `uploads/${name}`, name, mime: 'text/plain', size: 2000, fileId: `f_${name}` });

function setup(uploadFile = vi.fn(async (path: string, on: (p: UploadProgress) => void) => {
  on({ sent: 1000, total: 2000 });
  on({ sent: 2000, total: 2000 });
  return stored(path.split('/').pop() ?? '');
})) {
  const files = new Attachments({ pickFiles: vi.fn(), uploadFile });
  render(AttachmentChips, { attachments: files });
  return { files, uploadFile };
}

describe('Attachment chips', () => {
  it('uploads each accepted file with its own progress and keeps it for sending', async () => {
    const { files, uploadFile } = setup();
    files.add([check('notes.md')]);
    await waitFor(() => expect(screen.getByTestId('attachment-chip').dataset.state).toBe('ready'));
    expect(uploadFile).toHaveBeenCalledWith('/home/ada/notes.md', expect.any(Function));
    expect(screen.getByTestId('attachment-progress').getAttribute('aria-valuenow')).toBe('100');
    expect(files.ready).toEqual([stored('notes.md')]);
  });

  it('takes dropped files as Rust checked them: chips by token, the highlight off', async () => {
    const { files, uploadFile } = setup();
    files.dragging = true;
    files.dropped([check('table.csv', { path: '9f3c' }), check('dir', { path: '', refusal: { code: 'folder_not_file', title: 'This is a folder', detail: 'Choose files.', retryAt: null, action: null } })]);
    expect(files.dragging).toBe(false);
    await waitFor(() => expect(files.ready).toHaveLength(1));
    expect(uploadFile).toHaveBeenCalledTimes(1);
    expect(uploadFile).toHaveBeenCalledWith('9f3c', expect.any(Function));
    expect(files.chips.map((c) => c.state)).toEqual(['ready', 'refused']);
  });

  it('refuses an empty file with a sentence and never uploads it', async () => {
    const { files, uploadFile } = setup();
    files.add([check('empty.txt', { size: 0, refusal: { code: 'empty_file', title: 'This file is empty', detail: 'There is nothing in this file to send.', retryAt: null, action: null } })]);
    expect(await screen.findByTestId('attachment-error')).toHaveTextContent('There is nothing in this file to send.');
    expect(uploadFile).not.toHaveBeenCalled();
    expect(files.ready).toEqual([]);
  });

  it('marks an extension the service does not know, but still uploads it', async () => {
    const { files } = setup();
    files.add([check('drawing.xyz', { recognised: false })]);
    expect(await screen.findByTestId('attachment-unrecognised')).toHaveTextContent('unknown type');
    await waitFor(() => expect(files.ready).toHaveLength(1));
  });

  it('explains a failed upload, offers to try again, and can be removed', async () => {
    let fail = true;
    const { files } = setup(vi.fn(async (path: string) => {
      if (fail) throw new ApiError({ code: 'storage_quota_exceeded', title: 'Your file storage is full', detail: 'Remove old files.', retryAt: null, action: null });
      return stored(path);
    }));
    files.add([check('a.pdf')]);
    expect(await screen.findByTestId('attachment-error')).toHaveTextContent('Your file storage is full');
    fail = false;
    await userEvent.click(screen.getByTestId('attachment-retry'));
    await waitFor(() => expect(screen.getByTestId('attachment-chip').dataset.state).toBe('ready'));
    await userEvent.click(screen.getByTestId('attachment-remove'));
    expect(screen.queryByTestId('attachment-chip')).toBeNull();
    expect(files.ready).toEqual([]);
  });
});
