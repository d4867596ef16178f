// The service's pino logger: JSON lines, human-readable (pino-pretty) when written to a terminal. Whatever is
// logged, no line carries an RPC URL's credentials, path or query: the chain layer logs only redacted labels,
// and as a last guard every http(s) URL in a line is reduced to scheme and host before it is written
// (an error's cause chain, which pino's serializer appends, may quote the URL a request went to).
import { isatty } from "node:tty";
import { pino, type DestinationStream, type Logger } from "pino";
import { redactUrl } from "../config.ts";

export type LogFormat = "auto" | "json" | "pretty";

export interface LoggerOptions {
  readonly level: string;
  /** "auto" (default): pretty when the destination is a terminal, JSON lines otherwise. */
  readonly format?: LogFormat;
  /** File descriptor to write to: 1 (stdout, default) or 2 (stderr, for the CLI, whose stdout is the answer). */
  readonly fd?: 1 | 2;
  /** Write JSON lines to this stream instead (tests). */
  readonly stream?: DestinationStream;
}

/** An http(s) URL inside a JSON string: it ends at whitespace, a quote or an escape. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"\\]+/g;

export function scrubUrls(line: string): string {
  return line.replace(URL_IN_TEXT, (url) => redactUrl(url));
}

export function createLogger({ level, format = "auto", fd = 1, stream }: LoggerOptions): Logger {
  const options = { level, hooks: { streamWrite: scrubUrls } };
  if (stream) return pino(options, stream);
  const pretty = format === "pretty" || (format === "auto" && isatty(fd));
  if (!pretty) return pino(options, pino.destination({ dest: fd, sync: true }));
  return pino({
    ...options,
    transport: {
      target: "pino-pretty",
      options: { destination: fd, colorize: isatty(fd), translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname", singleLine: true },
    },
  });
}
