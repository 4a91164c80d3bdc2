import { type AddressInfo, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../../app-server/adapters/mail/smtp-mailer.ts';

/** The smallest SMTP server that accepts one message per DATA and keeps what it was sent (RFC 5321 happy path). */
function startSmtpSink(): Promise<{
  server: Server;
  port: number;
  messages: { from: string; to: string[]; data: string }[];
}> {
  const messages: { from: string; to: string[]; data: string }[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          messages.push(current);
          current = { from: '', to: [], data: '' };
          inData = false;
          socket.write('250 OK queued\r\n');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-sink\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') {
          current.from = line.replace(/^MAIL FROM:\s*<?([^>]*)>?.*$/i, '$1');
          socket.write('250 OK\r\n');
        } else if (verb === 'RCPT') {
          current.to.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, '$1'));
          socket.write('250 OK\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 Bye\r\n');
        } else socket.write('250 OK\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, messages })),
  );
}

describe('SMTP mailer (nodemailer) against a local SMTP server', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.server.close());

  it('delivers the message with sender, recipient, subject and the full link text', async () => {
    const mailer = createSmtpMailer({
      url: `smtp://127.0.0.1:${sink.port}`,
      from: 'StrideStake <no-reply@stridestake.test>',
    });
    await mailer.send({
      to: 'runner@example.com',
      subject: 'Confirm your StrideStake account',
      text: 'Confirm: http://localhost:3001/auth/v1/verify?token=abc123&type=signup',
    });
    expect(sink.messages).toHaveLength(1);
    const [message] = sink.messages;
    expect(message!.from).toBe('no-reply@stridestake.test');
    expect(message!.to).toEqual(['runner@example.com']);
    expect(message!.data).toContain('Subject: Confirm your StrideStake account');
    expect(message!.data.replace(/=\r\n/g, '').replace(/=3D/g, '=')).toContain(
      '/auth/v1/verify?token=abc123&type=signup',
    );
  });

  it('reports a refused recipient as a failure instead of pretending it was sent', async () => {
    const refusing = createServer((socket) => {
      socket.write('220 sink\r\n');
      socket.on('data', (chunk) => {
        const line = chunk.toString();
        if (/^RCPT/i.test(line)) socket.write('550 No such user\r\n');
        else if (/^QUIT/i.test(line)) socket.end('221 Bye\r\n');
        else socket.write('250 OK\r\n');
      });
    });
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', () => r()));
    const port = (refusing.address() as AddressInfo).port;
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: 'no-reply@stridestake.test' });
    await expect(mailer.send({ to: 'nobody@example.com', subject: 'x', text: 'y' })).rejects.toThrow();
    refusing.close();
  });
});
