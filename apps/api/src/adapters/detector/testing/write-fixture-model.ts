// Writes the test fixture model to the path given, for the browser journeys' server
// (scripts/e2e-server.mjs puts it where the API looks for a caries model: DATA_DIR/models).
import { writeFixtureModel } from './fixture-model';

const [filePath] = process.argv.slice(2);
if (filePath === undefined) {
  console.error('usage: write-fixture-model.ts <path of the .onnx file>');
  process.exit(2);
}
await writeFixtureModel(filePath);
