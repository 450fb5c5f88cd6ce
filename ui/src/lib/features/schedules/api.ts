// The schedules' commands and types, from the one module that talks to Tauri (lib/api.ts).
export { schedulesApi } from '../../api';
export type {
  Digest,
  DigestLine,
  MissedWhy,
  NewSchedule,
  Outcome,
  Repeat,
  Schedule,
  ScheduleList,
  ScheduleRow,
  SchedulesApi,
  TimeOfDay,
  TrayTime,
} from '../../api';
