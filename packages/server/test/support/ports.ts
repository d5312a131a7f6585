import net from 'node:net';

/**
 * A port no one holds now, from the system (a random one in 20000–40000 could be a client socket's
 * local port on a busy machine, within the ephemeral range).
 */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
