// Loaded by `npm run dev` (scripts/dev.mts) with --import before dist/src/server.js, so the next
// service process waits on standby: it requires the packages the last one loaded (sent by dev.mts,
// about 0.6 s of a start on this machine), then runs the service when told to. Only packages:
// the service's own code is what changed. Node runs this file as it is (type stripping).
import { createRequire } from 'node:module';
import path from 'node:path';

type Message = { preload: string[] } | 'go' | 'modules';

const require = createRequire(path.join(process.cwd(), 'package.json'));
const nextMessage = () => new Promise<Message>((resolve) => process.once('message', resolve));

// Without dev.mts (the channel closed), a standby has nothing to wait for and a service no one to
// restart it: both stop as a deployment stops them.
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));

let message = await nextMessage();
if (typeof message === 'object') {
  for (const file of message.preload)
    try {
      require(file);
    } catch {
      // Gone or broken since: the service requires what it needs, and says so.
    }
  message = await nextMessage();
}
while (message !== 'go') message = await nextMessage();

// What dev.mts asks once the service answers, for the next standby.
const packages = `${path.sep}node_modules${path.sep}`;
process.on('message', (message: Message) => {
  if (message === 'modules') process.send!(Object.keys(require.cache).filter((file) => file.includes(packages)));
});
