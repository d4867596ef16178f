// Where the head's parts (the follower, its subscription, the doubt about a head, its events) write what they
// notice: a pino logger in the service, nothing in most tests.
export interface HeadLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}
