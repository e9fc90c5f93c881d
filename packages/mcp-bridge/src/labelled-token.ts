/**
 * One of several bearer tokens an HTTP server accepts, with the label that names its holder (a
 * person, a studio tool, a CI job). The label, never the token, is what the audit log (as
 * `client`) and traces record, so one client can be told apart from another and revoked alone;
 * it is the only verified name a client has (the name it gives itself in `initialize` is only a
 * claim). It is also whom `maxSessionsPerClient` counts sessions against.
 */
export interface LabelledToken {
  /** Who holds the token: 1 to 64 letters, digits, `_`, `-`, `.` or `@`; distinct per server. */
  readonly label: string;
  /** The secret itself: at least 16 characters, distinct per server. */
  readonly token: string;
}
