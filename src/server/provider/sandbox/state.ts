/** The sandbox's process-wide state: its data (generated on first use) and the simulated outage. */
import { config } from '../../config';
import { SandboxStore } from './store';

let store: SandboxStore | undefined;

export function sandboxStore(): SandboxStore {
  return (store ??= new SandboxStore(config.sandboxSeed, config.sandboxReceipts, Date.now()));
}

let down = false;

export const isSandboxDown = () => down;

export function setSandboxDown(value: boolean): void {
  down = value;
}
