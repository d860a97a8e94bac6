import { runBackupCommand } from './backup-command';
import { backup } from '../backup/backup';

/** `npm run backup -- <folder>` (docs/decisions/backup-restore.md). */
runBackupCommand(
  'backup',
  'Backup: npm run backup -- <new or empty folder>',
  async (config, folder) => {
    const written = await backup(config, folder);
    return `Backed up the ${written.database.kind === 'pglite' ? 'embedded' : 'PostgreSQL'} database and ${String(written.files.length - 1)} files to ${folder}.`;
  },
);
