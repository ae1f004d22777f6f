/**
 * The test SMTP server as a process of its own, for the browser tests (playwright.config.ts starts it),
 * with a small HTTP mailbox beside it: GET /messages answers what it received, oldest first.
 */
import http from 'node:http';
import { startSmtpServer } from './smtp-server.ts';

const smtp = await startSmtpServer(Number(process.env.SMTP_PORT));
const mailbox = http.createServer((request, response) => {
  if (request.url !== '/messages') {
    response.writeHead(404).end();
    return;
  }
  const messages = smtp.messages.map((mail) => ({
    to: mail.to && !Array.isArray(mail.to) ? mail.to.text : '',
    subject: mail.subject ?? '',
    text: mail.text ?? '',
  }));
  response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(messages));
});
await new Promise<void>((resolve) =>
  mailbox.listen(Number(process.env.MAILBOX_PORT), '127.0.0.1', resolve),
);
console.log(
  `test SMTP server at ${smtp.url}, its mailbox at http://127.0.0.1:${process.env.MAILBOX_PORT}/messages`,
);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    mailbox.close();
    void smtp.stop().then(() => process.exit(0));
  });
}
