// Sharing a finished task as a report, typed (lib/api.ts talks to Tauri).
import { reportApi } from '../../api';

export type { ReportWords, SavedReport } from '../../api';
export { reportApi };
export type ReportApi = typeof reportApi;
