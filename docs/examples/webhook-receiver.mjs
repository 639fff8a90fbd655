import { createServer } from 'node:http';
import { text } from 'node:stream/consumers';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.WEBHOOK_SECRET);
createServer(async (req, res) => {
  try {
    const event = webhook.verify(await text(req), req.headers);
    console.log(req.headers['webhook-id'], event.type, JSON.stringify(event.data).slice(0, 60));
    res.writeHead(204).end();
  } catch {
    res.writeHead(401).end();
  }
}).listen(process.env.PORT ?? 9000);
