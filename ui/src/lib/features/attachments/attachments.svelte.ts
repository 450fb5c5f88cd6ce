// The files on the composer before sending: one chip per file, each checked in Rust first
// (folders, pipes, empty, over 25 MB, unreadable files are refused there, before any upload)
// and then uploaded by Rust with its own progress. A chip's `path` is the token Rust gave the
// file when it was picked or dropped, never a path Rust would open. Only finished uploads
// are sent.
import type { Api, FileCheck, UiError, Upload } from '../../api';
import { toUiError } from '../../ui-error';
import { intl, t } from '../../i18n';

export type ChipState = 'uploading' | 'ready' | 'refused' | 'failed';

export interface Chip {
  id: number;
  name: string;
  path: string;
  size: number;
  recognised: boolean;
  state: ChipState;
  sent: number;
  total: number;
  upload: Upload | null;
  error: UiError | null;
}

type FilesApi = Pick<Api, 'pickFiles' | 'uploadFile'>;

let nextId = 1;

export class Attachments {
  chips = $state<Chip[]>([]);
  /** Files are being dragged over the window. */
  dragging = $state(false);
  /** Why the file dialog or a drop could not be used. */
  error = $state<UiError | null>(null);
  private readonly api: FilesApi;

  constructor(api: FilesApi) {
    this.api = api;
  }

  get uploading(): boolean {
    return this.chips.some((c) => c.state === 'uploading');
  }

  get ready(): Upload[] {
    return this.chips.flatMap((c) => (c.state === 'ready' && c.upload ? [c.upload] : []));
  }

  async pick(): Promise<void> {
    try {
      this.add(await this.api.pickFiles());
    } catch (e) {
      this.error = toUiError(e);
    }
  }

  /** Files dropped on the window, as Rust checked them (tokens, never paths). */
  dropped(checks: FileCheck[]): void {
    this.dragging = false;
    this.add(checks);
  }

  add(checks: FileCheck[]): void {
    for (const check of checks) {
      this.chips.push({
        id: nextId++,
        name: check.name,
        path: check.path,
        size: check.size ?? 0,
        recognised: check.recognised,
        state: check.refusal ? 'refused' : 'uploading',
        sent: 0,
        total: check.size ?? 0,
        upload: null,
        error: check.refusal,
      });
      const chip = this.chips[this.chips.length - 1];
      if (!check.refusal) void this.upload(chip);
    }
  }

  async upload(chip: Chip): Promise<void> {
    chip.state = 'uploading';
    chip.error = null;
    chip.sent = 0;
    try {
      const upload = await this.api.uploadFile(chip.path, (p) => {
        chip.sent = p.sent ?? 0;
        chip.total = p.total ?? chip.total;
      });
      // Removed while uploading: the file is stored but not sent.
      if (!this.chips.some((c) => c.id === chip.id)) return;
      chip.upload = upload;
      chip.sent = chip.total;
      chip.state = 'ready';
    } catch (e) {
      chip.error = toUiError(e);
      chip.state = 'failed';
    }
  }

  retry(id: number): void {
    const chip = this.chips.find((c) => c.id === id);
    if (chip && chip.state === 'failed') void this.upload(chip);
  }

  remove(id: number): void {
    this.chips = this.chips.filter((c) => c.id !== id);
  }

  clear(): void {
    this.chips = [];
  }
}

export function fileSize(bytes: number): string {
  if (bytes < 1024) return t('attachments.size.bytes', { size: String(bytes) });
  if (bytes < 1024 * 1024) return t('attachments.size.kilobytes', { size: String(Math.round(bytes / 1024)) });
  return t('attachments.size.megabytes', { size: intl.number(bytes / (1024 * 1024), 1) });
}
