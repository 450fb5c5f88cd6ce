// The card's words from Rust's reading of it (`card_reading/`, whose own tests read the
// commands): the page says what the reading says, and reads nothing itself.
import { afterEach, describe, expect, it } from 'vitest';
import { describeCard } from './approval-words';
import { speak } from './i18n';
import type { ApprovalRequest, CardReading, Deletion, Place } from './api';

const card = (reading: CardReading, over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  approvalId: 'ap_1',
  kind: 'yesNo',
  questions: [],
  title: 'Run a command',
  description: '',
  approvalType: 'exec',
  isLinkOnly: false,
  approvalUrl: null,
  command: 'rm -r ~/Documents/old-reports',
  cwd: '/home/agent',
  expiresAt: null,
  task: '',
  reading,
  ...over,
});
const deletes = (...d: Deletion[]): CardReading => ({ destructive: true, deletes: d, mismatch: null });
const inDocuments: Place = { kind: 'within', folders: ['Documents'] };

describe('describeCard: the words of what Rust read', () => {
  afterEach(() => speak('en'));

  it('says which folder is deleted, with a red act', () => {
    const w = describeCard(card(deletes({ kind: 'folder', name: 'old-reports', place: inDocuments })));
    expect(w.destructive).toBe(true);
    expect(w.headline).toBe('Permanently delete the folder old-reports in Documents and everything in it?');
    expect(w.act).toBe('Delete folder');
    expect(w.silence).toContain('nothing is deleted');
    expect(w.mismatch).toBeNull();
  });

  it('words files, patterns, found files, several items and disks', () => {
    expect(describeCard(card(deletes({ kind: 'file', name: 'notes.txt', place: { kind: 'within', folders: ['Desktop'] } }))).headline)
      .toBe('Permanently delete the file notes.txt in Desktop?');
    expect(describeCard(card(deletes({ kind: 'matching', name: '*.tmp', place: { kind: 'within', folders: ['Downloads'] } }))).headline)
      .toBe('Permanently delete the files matching “*.tmp” in Downloads?');
    const several = describeCard(card(deletes(
      { kind: 'folder', name: 'a', place: { kind: 'home' } },
      { kind: 'folder', name: 'b', place: { kind: 'home' } },
    )));
    expect(several.headline).toBe('Permanently delete 2 items in your home folder: a and b?');
    expect(several.act).toBe('Delete 2 items');
    expect(describeCard(card(deletes({ kind: 'found', name: 'Downloads', place: { kind: 'within', folders: ['Downloads'] } }))).headline)
      .toBe('Permanently delete the files it finds in Downloads?');
    expect(describeCard(card(deletes({ kind: 'disk', name: '/dev/sdb1', place: { kind: 'top' } }))).act).toBe('Erase disk');
  });

  it('keeps the title and an ordinary Approve when Rust read nothing destructive, whatever the command', () => {
    const w = describeCard(card({ destructive: false, deletes: [], mismatch: null }, { title: 'Send the email' }));
    expect(w).toMatchObject({ headline: 'Send the email', destructive: false, act: 'Approve', mismatch: null });
    expect(w.silence).toBe('the agent skips this step.');
  });

  it('names the act from the title when only the title says delete', () => {
    const w = describeCard(card({ destructive: true, deletes: [], mismatch: null }, { title: 'Delete the selected items', command: null }));
    expect(w).toMatchObject({ destructive: true, act: 'Delete', headline: 'Delete the selected items' });
  });

  it('warns in the page’s language about the places the task named', () => {
    const astray = (mismatch: CardReading['mismatch']) => card({
      ...deletes({ kind: 'folder', name: 'old-reports', place: inDocuments }), mismatch,
    });
    expect(describeCard(astray([{ known: 'downloads', name: 'downloads' }])).mismatch)
      .toBe('Your task named Downloads, but this deletes old-reports in Documents.');
    expect(describeCard(astray([{ known: null, name: 'drafts' }])).mismatch)
      .toBe('Your task named the drafts folder, but this deletes old-reports in Documents.');
    // A German task's folder, named in English words on an English page, and German on a German one.
    expect(describeCard(astray([{ known: 'documents', name: 'dokumente' }])).mismatch)
      .toBe('Your task named Documents, but this deletes old-reports in Documents.');
    speak('de');
    expect(describeCard(astray([{ known: 'downloads', name: 'downloads' }])).mismatch)
      .toBe('Deine Aufgabe nannte Downloads, aber das hier löscht old-reports in Documents.');
    expect(describeCard(astray([{ known: 'desktop', name: 'desktop' }])).mismatch)
      .toBe('Deine Aufgabe nannte Schreibtisch, aber das hier löscht old-reports in Documents.');
  });
});
