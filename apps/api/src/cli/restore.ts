import { runBackupCommand } from './backup-command';
import { restore } from '../backup/restore';

/** `npm run restore -- <folder>` (docs/decisions/backup-restore.md). */
runBackupCommand(
  'restore',
  'Restore: npm run restore -- <backup folder>, into an empty DATA_DIR (or DATABASE_URL and bucket)',
  async (config, folder) => {
    const restored = await restore(config, folder);
    return `Restored the database and ${String(restored.files.length - 1)} files from ${folder}; every SHA-256 matched.`;
  },
);
