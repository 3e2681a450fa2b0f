/**
 * Process entry: configuration from the environment (a bad value exits 2 naming the variable),
 * the gateway, and graceful shutdown on SIGTERM/SIGINT (stop accepting, drain, exit 0).
 */
import { ConfigError, loadConfig } from './config.ts';
import { startGateway } from './gateway.ts';
import { applyV8Flags } from './v8-flags.ts';

// Before the gateway starts its worker threads (see v8-flags.ts).
applyV8Flags();

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const gateway = await startGateway(config);
  gateway.logger.info({ host: config.host, port: gateway.port, native: gateway.server.native }, `listening on http://${config.host}:${gateway.port}`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    gateway.logger.info({ signal }, 'shutting down');
    gateway.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  // Boot failures (a bad payee file, a missing model directory) carry their own clear message.
  process.stderr.write(`gateway failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
