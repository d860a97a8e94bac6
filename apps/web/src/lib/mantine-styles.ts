// Mantine's whole stylesheet, in its `mantine` cascade layer: fetched with every screen but the
// sign-in screen, whose components the page's own subset styles (main.tsx,
// docs/decisions/first-paint-shell.md). Loaded twice, a rule keeps the place of its last copy, so
// the whole sheet arriving after the subset cascades exactly as the whole sheet alone.
import '@mantine/core/styles.layer.css';
import '@mantine/notifications/styles.layer.css';
