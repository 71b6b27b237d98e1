// The English wordings are the server's own table; this file only gives their chunk a name
// (wordings-en), so the size budget knows it is a language table, of which a session loads one.
export { EN_WORDINGS } from '../../../src/contract/said/index';
