import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";

export interface ReceivedMail {
  readonly envelope: { readonly from: string; readonly to: readonly string[] };
  readonly raw: string;
}

/** An SMTP server in the test process that can refuse mail at the end of DATA. */
export interface TestSmtpServer {
  readonly port: number;
  /** Mail the server accepted. */
  readonly accepted: ReceivedMail[];
  /** Every mail transmitted, accepted or refused. */
  readonly transmitted: ReceivedMail[];
  refuseNext(count: number, responseCode: number): void;
  refuseAlways(responseCode: number): void;
  /** Refuses every recipient (at RCPT TO) with this code. */
  refuseRecipients(responseCode: number): void;
  close(): Promise<void>;
}

function readAll(stream: SMTPServerDataStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stream.on("error", reject);
  });
}

function envelopeOf(session: SMTPServerSession): ReceivedMail["envelope"] {
  const from = session.envelope.mailFrom;
  return { from: from === false ? "" : from.address, to: session.envelope.rcptTo.map((address) => address.address) };
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const accepted: ReceivedMail[] = [];
  const transmitted: ReceivedMail[] = [];
  let refusals = 0;
  let refusing = false;
  let refusalCode = 451;
  let recipientRefusal: number | undefined;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    disableReverseLookup: true,
    onRcptTo(_address, _session, callback) {
      if (recipientRefusal === undefined) return callback();
      callback(Object.assign(new Error("no such user here"), { responseCode: recipientRefusal }));
    },
    onData(stream, session, callback) {
      readAll(stream).then(
        (raw) => {
          const mail = { envelope: envelopeOf(session), raw };
          transmitted.push(mail);
          if (refusing || refusals > 0) {
            refusals = Math.max(0, refusals - 1);
            callback(Object.assign(new Error("mailbox busy, try again later"), { responseCode: refusalCode }));
            return;
          }
          accepted.push(mail);
          callback(null);
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    accepted,
    transmitted,
    refuseNext: (count, responseCode) => {
      refusals = count;
      refusalCode = responseCode;
    },
    refuseAlways: (responseCode) => {
      refusing = true;
      refusalCode = responseCode;
    },
    refuseRecipients: (responseCode) => {
      recipientRefusal = responseCode;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
