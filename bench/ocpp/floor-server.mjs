// The transport floor of the OCPP benchmark: a bare `ws` server on loopback, no database, no
// validation, no log, answering a BootNotification with Accepted and every other CALL with {}. The
// benchmark connects the storm's chargers to it with the same clients, so that what a reconnecting
// charger costs the real server can be read against what the HTTP upgrade, the WebSocket handshake,
// four frames in and four out and the kernel's loopback TCP cost on this machine by themselves.
// Same options as the server's own endpoint (bare sockets, no compression, ocpp1.6 / ocpp2.0.1).
import http from 'node:http';
import { WebSocketServer } from 'ws';

const server = http.createServer((req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({
  noServer: true,
  clientTracking: false,
  perMessageDeflate: false,
  handleProtocols: (offered) => [...offered].find((p) => p === 'ocpp1.6' || p === 'ocpp2.0.1') ?? false,
});
server.on('upgrade', (req, socket, head) => {
  socket.on('error', () => {});
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.on('error', () => {});
    ws.on('message', (data) => {
      let frame;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return; // not a frame the clients send; the floor answers calls only
      }
      if (!Array.isArray(frame) || frame[0] !== 2) return;
      const payload = frame[2] === 'BootNotification' ? { status: 'Accepted', currentTime: new Date().toISOString(), interval: 300 } : {};
      ws.send(JSON.stringify([3, frame[1], payload]));
    });
  });
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (msg) => {
  if (msg === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ cpuMs: (user + system) / 1000 });
  }
});
process.on('disconnect', () => process.exit(0));
