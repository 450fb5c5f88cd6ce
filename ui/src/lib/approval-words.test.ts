import { afterEach, describe, expect, it } from 'vitest';
import { describeCard, placesNamed, shellWords } from './approval-words';
import { speak } from './i18n';
import type { ApprovalRequest } from './api';

const card = (over: Partial<ApprovalRequest>): ApprovalRequest => ({
  approvalId: 'ap_1',
  kind: 'yesNo',
  questions: [],
  title: 'Run a command',
  description: '',
  approvalType: 'exec',
  isLinkOnly: false,
  approvalUrl: null,
  command: null,
  cwd: '/home/agent',
  expiresAt: null,
  ...over,
});

describe('shellWords', () => {
  it('splits on spaces and separators, keeping quoted words whole', () => {
    expect(shellWords(`rm -r "My Files/old one" && echo 'done; really'`)).toEqual([
      ['rm', '-r', 'My Files/old one'],
      ['echo', 'done; really'],
    ]);
    expect(shellWords('rm a\\ b; ls | wc')).toEqual([['rm', 'a b'], ['ls'], ['wc']]);
  });
});

describe('describeCard: destruction is read from the command', () => {
  it('says in words which folder a recursive rm deletes, with a red act', () => {
    const w = describeCard(card({ command: 'rm -r ~/Documents/old-reports' }), 'Tidy up');
    expect(w.destructive).toBe(true);
    expect(w.headline).toBe('Permanently delete the folder old-reports in Documents and everything in it?');
    expect(w.act).toBe('Delete folder');
    expect(w.silence).toContain('nothing is deleted');
    expect(w.mismatch).toBeNull();
  });

  it('reads relative paths against the folder, sudo, files and several items', () => {
    expect(describeCard(card({ command: 'sudo rm -f notes.txt', cwd: '/home/ada/Desktop' }), '').headline)
      .toBe('Permanently delete the file notes.txt in Desktop?');
    expect(describeCard(card({ command: 'rm ~/Downloads/*.tmp' }), '').headline)
      .toBe('Permanently delete the files matching “*.tmp” in Downloads?');
    const several = describeCard(card({ command: 'rm -rf ~/a ~/b' }), '');
    expect(several.headline).toBe('Permanently delete 2 items in your home folder: a and b?');
    expect(several.act).toBe('Delete 2 items');
    expect(describeCard(card({ command: 'find ~/Downloads -name "*.iso" -delete' }), '').headline)
      .toBe('Permanently delete the files it finds in Downloads?');
    expect(describeCard(card({ command: 'Remove-Item -Recurse C:\\Users\\ada\\Documents\\Old' }), '').act)
      .toBe('Delete folder');
    expect(describeCard(card({ command: 'mkfs.ext4 /dev/sdb1' }), '').act).toBe('Erase disk');
  });

  it('keeps the title and an ordinary Approve for a command it does not know', () => {
    const w = describeCard(card({ title: 'Send the email', command: 'mail --send draft-1' }), 'Send the report');
    expect(w).toMatchObject({ headline: 'Send the email', destructive: false, act: 'Approve' });
    expect(w.silence).toBe('the agent skips this step.');
    // "rm" inside another word or as an argument is not a deletion.
    expect(describeCard(card({ command: 'echo rm -r ~/x' }), '').destructive).toBe(false);
    expect(describeCard(card({ command: 'git rm --cached x' }), '').destructive).toBe(false);
  });

  it('treats a card whose own title says delete as destructive when there is no command', () => {
    const w = describeCard(card({ title: 'Delete the selected items', command: null }), '');
    expect(w).toMatchObject({ destructive: true, act: 'Delete', headline: 'Delete the selected items' });
  });
});

describe('describeCard: a target elsewhere than the task named', () => {
  it('warns when the task named Downloads and the command deletes in Documents', () => {
    const w = describeCard(card({ command: 'rm -r ~/Documents/old-reports' }), 'Delete the old files in Downloads');
    expect(w.mismatch).toBe('Your task named Downloads, but this deletes old-reports in Documents.');
  });

  it('warns when the task named another folder by name', () => {
    const w = describeCard(card({ command: 'rm -r ~/Documents/old-reports' }), 'Delete the old drafts folder');
    expect(w.mismatch).toBe('Your task named the drafts folder, but this deletes old-reports in Documents.');
  });

  it('says nothing when the target is where the task said, or the task named no place', () => {
    expect(describeCard(card({ command: 'rm -r ~/Documents/drafts' }), 'Delete the old drafts folder').mismatch).toBeNull();
    expect(describeCard(card({ command: 'rm -r ~/Downloads/installers' }), 'Clean up my downloads').mismatch).toBeNull();
    expect(describeCard(card({ command: 'rm -r ~/Documents/old-reports' }), 'Delete everything').mismatch).toBeNull();
  });

  it('finds the places a task names', () => {
    expect(placesNamed('Delete the old files in Downloads')).toEqual(['Downloads']);
    expect(placesNamed('Empty the folder called "exports" on my Desktop')).toEqual(['Desktop', 'exports']);
    expect(placesNamed('Find the weather in Paris')).toEqual([]);
  });
});

describe('describeCard: the places named, in the page’s language', () => {
  afterEach(() => speak('en'));

  it('names a well-known folder the task named in German words', () => {
    speak('de');
    const w = describeCard(card({ command: 'rm -r ~/Documents/old-reports' }), 'Lösche die alten Dateien in Downloads');
    expect(w.mismatch).toBe('Deine Aufgabe nannte Downloads, aber das hier löscht old-reports in Documents.');
    expect(placesNamed('Räum meinen Schreibtisch auf')).toEqual(['Schreibtisch']);
    // An English task read on a German page: the folder is named the German way.
    expect(placesNamed('Clean up my desktop and pictures')).toEqual(['Schreibtisch', 'Bilder']);
  });

  it('knows a folder by its German name on disk and in the task', () => {
    speak('de');
    expect(describeCard(card({ command: 'rm -r ~/Dokumente/entwuerfe' }), 'Lösche alles in Dokumente').mismatch).toBeNull();
    expect(describeCard(card({ command: 'rm -r ~/Documents/drafts' }), 'Lösche alles in Dokumente').mismatch).toBeNull();
    expect(describeCard(card({ command: 'rm -r ~/Bilder/urlaub' }), 'Lösche den Ordner „Entwürfe“').mismatch)
      .toBe('Deine Aufgabe nannte den Ordner entwürfe, aber das hier löscht urlaub in Bilder.');
  });

  it('names a German task’s folder in English words on an English page', () => {
    expect(placesNamed('Lösche die alten Fotos in Dokumente')).toEqual(['Photos', 'Documents']);
    const w = describeCard(card({ command: 'rm -r ~/Music/old' }), 'Delete the old files in Dokumente');
    expect(w.mismatch).toBe('Your task named Documents, but this deletes old in Music.');
  });
});
