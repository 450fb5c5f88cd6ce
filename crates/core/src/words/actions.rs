//! What the person can do about each failure: one exhaustive match, so a new code without
//! an action does not compile. Its title and sentence are in the catalog
//! (`locales/<language>/errors.json`), checked for every code by `tests.rs`.

use crate::error::UiAction::{self, *};
use crate::error::UiCode::{self, *};

pub fn of(code: UiCode) -> Option<UiAction> {
    match code {
        Unauthorized
        | PhoneVerificationRequired
        | SignInNeeded
        | SignInExpired
        | KeyNeedsPhone
        | SignedInNeedsPhone
        | NotYourComputer
        | DemoUnavailable => Some(SignIn),
        RateLimited
        | MachineBusy
        | MachineUnavailable
        | InsufficientCredits
        | FreeComputerTimeExhausted
        | KeyRateLimited
        | CreationBusy
        | UploadRateLimited
        | LiveRateLimited => Some(WaitUntil),
        MachineNotRunning | LiveAsleep => Some(Wake),
        ModelNotAllowedForPlan => Some(ChooseModel),
        SessionNotFound | UnknownConversation => Some(NewConversation),
        MachineNotFound
        | MessageNotAccepted
        | MessageNotSent
        | MessageNotKnownSent
        | Network
        | ServerError
        | Refused
        | ControlNotOpen
        | ConsoleClosed
        | ConsoleIdle
        | ConsoleLockLost
        | ConsoleUnresponsive
        | ConsoleServiceRestarted
        | ConsoleEnded
        | TaskFailed
        | TurnNotFinished
        | LearnFailed
        | AutostartUnavailable
        | SignInTimedOut
        | SignInCancelled
        | SignInUnreachable
        | SignedInKeyLimit
        | UploadFailed
        | Keychain
        | Store
        | NotConnected
        | ReportNotSaved
        | RedactionsRefused
        | Unexpected
        | LiveSocketUnavailable
        | LivePageUnconnected => Some(Retry),
        Forbidden
        | NoMachine
        | SeveralMachines
        // Nothing to do but wait: Retry would send the message a second time, and the
        // conversation is read again when the person comes back to it.
        | UpdatesLost
        | ApprovalResolved
        | SelectionRejected
        | ApprovalLinkOnly
        | InvalidBaseUrl
        | InsecureAddress
        | AddressUnreachable
        | NotTheService
        | NotLikeTheService
        | SignInNotHere
        | OwnKeyNotRevoked
        | InvalidCredential
        | MachineNotSupported
        | NotFreeTier
        | InvalidBody
        | LeaseNotOpen
        | NoScreenshot
        | OutputInvalid
        | CriteriaNotMet
        | CriteriaUnchecked
        | TurnNotFound
        | TrajectoryNotRecorded
        | NoSteps
        | TemplateMismatch
        | MixedSessions
        | Validation
        | NotSupported
        | ResultNotFound
        | NoTurnYet
        | UnknownReusableTask
        | NoCriteria
        | InvalidSchema
        | InvalidCap
        | UnknownSchedule
        | ScheduleBadTime
        | ScheduleNoDays
        | ScheduleBadInterval
        | ScheduleTooFar
        | ScheduleNoTask
        | ScheduleInThePast
        | ScheduleOtherService
        | ScheduleHourlyLimit
        | SignInStopped
        | SignInUnavailable
        | NotASignInToken
        | KeyLimitReached
        | KeyNotFound
        | KeyNameTooLong
        | NewKeyGone
        | FreePlanComputer
        | NotBillable
        | ComputerNotOnline
        | StorageQuotaExceeded
        | EmptyFile
        | FileTooLarge
        | FileUnreadable
        | FolderNotFile
        | NotAFile
        | StoredDataSetAside
        | FinishedConversation
        | TaskRunningHere
        | NoPendingApproval
        | CannotWake
        | BrowserUnavailable
        | FullScreenUnavailable
        | SnapshotNotSaved
        | VideoNotSaved
        | SnapshotUnreadable
        | LiveClosed
        | LiveTokenRejected
        | LiveTokenExpired
        | LiveMachineStopped
        | LiveServerError
        | LiveDisconnected
        | LiveGarbled
        | LiveUnsupported
        | LiveSilent
        | LiveNetwork
        | LiveUrlUnavailable
        | LiveStopped
        | PhoneAllowanceInUse
        | CreateOnPortal
        | TaskNotStarted => None,
    }
}
