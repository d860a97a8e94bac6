// The social sign-in providers' local stand-ins as a process of their own, for the browser
// journeys (scripts/e2e-server.mjs): listens on the three ports given, prints the API's
// environment as one JSON line, and stops on SIGTERM or SIGINT.
import { startSocialProviders } from './social-providers';

const ports = process.argv.slice(2, 5).map(Number);
if (ports.length !== 3 || ports.some((port) => !Number.isInteger(port))) {
  console.error('Usage: social-providers-server.ts <google port> <apple port> <stand-in port>');
  process.exit(2);
}
const providers = await startSocialProviders({ ports: ports as [number, number, number] });
console.log(JSON.stringify(providers.env));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void providers.close().then(() => process.exit(0));
  });
}
