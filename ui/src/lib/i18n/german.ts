// German, the catalog's second language, in a chunk of its own: the page loads it only when
// the person reads German (`loadLanguage` in t.ts), so an English launch does not parse it
// (BENCHMARKS.md, "Footprint"). Its shape is English's: a missing key fails the type check.
import type { Catalog } from './catalog';
import accountDe from '../../../../locales/de/account.json';
import advancedDe from '../../../../locales/de/advanced.json';
import answerDe from '../../../../locales/de/answer.json';
import approvalDe from '../../../../locales/de/approval.json';
import attachmentsDe from '../../../../locales/de/attachments.json';
import commonDe from '../../../../locales/de/common.json';
import composerDe from '../../../../locales/de/composer.json';
import computerDe from '../../../../locales/de/computer.json';
import consoleDe from '../../../../locales/de/console.json';
import errorsDe from '../../../../locales/de/errors.json';
import inboxDe from '../../../../locales/de/inbox.json';
import judgeDe from '../../../../locales/de/judge.json';
import keysDe from '../../../../locales/de/keys.json';
import liveDe from '../../../../locales/de/live.json';
import noticesDe from '../../../../locales/de/notices.json';
import replayDe from '../../../../locales/de/replay.json';
import reportDe from '../../../../locales/de/report.json';
import reportPageDe from '../../../../locales/de/reportPage.json';
import reusableDe from '../../../../locales/de/reusable.json';
import scheduleNotesDe from '../../../../locales/de/scheduleNotes.json';
import schedulesDe from '../../../../locales/de/schedules.json';
import searchDe from '../../../../locales/de/search.json';
import settingsDe from '../../../../locales/de/settings.json';
import shellDe from '../../../../locales/de/shell.json';
import signInPageDe from '../../../../locales/de/signInPage.json';
import signinDe from '../../../../locales/de/signin.json';
import spendingDe from '../../../../locales/de/spending.json';
import storedDe from '../../../../locales/de/stored.json';
import taskDe from '../../../../locales/de/task.json';
import trayDe from '../../../../locales/de/tray.json';
import updatesDe from '../../../../locales/de/updates.json';
import usageDe from '../../../../locales/de/usage.json';
import windowDe from '../../../../locales/de/window.json';

export const german: Catalog = {
  account: accountDe,
  advanced: advancedDe,
  answer: answerDe,
  approval: approvalDe,
  attachments: attachmentsDe,
  common: commonDe,
  composer: composerDe,
  computer: computerDe,
  console: consoleDe,
  errors: errorsDe,
  inbox: inboxDe,
  judge: judgeDe,
  keys: keysDe,
  live: liveDe,
  notices: noticesDe,
  replay: replayDe,
  report: reportDe,
  reportPage: reportPageDe,
  reusable: reusableDe,
  scheduleNotes: scheduleNotesDe,
  schedules: schedulesDe,
  search: searchDe,
  settings: settingsDe,
  shell: shellDe,
  signInPage: signInPageDe,
  signin: signinDe,
  spending: spendingDe,
  stored: storedDe,
  task: taskDe,
  tray: trayDe,
  updates: updatesDe,
  usage: usageDe,
  window: windowDe,
};
