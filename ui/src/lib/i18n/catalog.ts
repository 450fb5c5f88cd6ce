// The one catalog of words (locales/<language>/<part>.json at the top of the repository),
// as the page reads it. The Rust side embeds the same files (crates/core/src/words/catalog.rs).
// A key is `<part>.<name>`. English is the catalog's shape: a key the page asks for must be in
// it (the type check fails otherwise), and German must have every English key (the same).
import accountEn from '../../../../locales/en/account.json';
import advancedEn from '../../../../locales/en/advanced.json';
import answerEn from '../../../../locales/en/answer.json';
import approvalEn from '../../../../locales/en/approval.json';
import attachmentsEn from '../../../../locales/en/attachments.json';
import commonEn from '../../../../locales/en/common.json';
import composerEn from '../../../../locales/en/composer.json';
import computerEn from '../../../../locales/en/computer.json';
import consoleEn from '../../../../locales/en/console.json';
import errorsEn from '../../../../locales/en/errors.json';
import inboxEn from '../../../../locales/en/inbox.json';
import judgeEn from '../../../../locales/en/judge.json';
import keysEn from '../../../../locales/en/keys.json';
import liveEn from '../../../../locales/en/live.json';
import noticesEn from '../../../../locales/en/notices.json';
import replayEn from '../../../../locales/en/replay.json';
import reportEn from '../../../../locales/en/report.json';
import reportPageEn from '../../../../locales/en/reportPage.json';
import reusableEn from '../../../../locales/en/reusable.json';
import scheduleNotesEn from '../../../../locales/en/scheduleNotes.json';
import schedulesEn from '../../../../locales/en/schedules.json';
import searchEn from '../../../../locales/en/search.json';
import settingsEn from '../../../../locales/en/settings.json';
import shellEn from '../../../../locales/en/shell.json';
import signInPageEn from '../../../../locales/en/signInPage.json';
import signinEn from '../../../../locales/en/signin.json';
import spendingEn from '../../../../locales/en/spending.json';
import storedEn from '../../../../locales/en/stored.json';
import taskEn from '../../../../locales/en/task.json';
import trayEn from '../../../../locales/en/tray.json';
import updatesEn from '../../../../locales/en/updates.json';
import usageEn from '../../../../locales/en/usage.json';
import windowEn from '../../../../locales/en/window.json';

export const english = {
  account: accountEn,
  advanced: advancedEn,
  answer: answerEn,
  approval: approvalEn,
  attachments: attachmentsEn,
  common: commonEn,
  composer: composerEn,
  computer: computerEn,
  console: consoleEn,
  errors: errorsEn,
  inbox: inboxEn,
  judge: judgeEn,
  keys: keysEn,
  live: liveEn,
  notices: noticesEn,
  replay: replayEn,
  report: reportEn,
  reportPage: reportPageEn,
  reusable: reusableEn,
  scheduleNotes: scheduleNotesEn,
  schedules: schedulesEn,
  search: searchEn,
  settings: settingsEn,
  shell: shellEn,
  signInPage: signInPageEn,
  signin: signinEn,
  spending: spendingEn,
  stored: storedEn,
  task: taskEn,
  tray: trayEn,
  updates: updatesEn,
  usage: usageEn,
  window: windowEn,
};

/** The catalog's shape, English's. */
export type Catalog = typeof english;
