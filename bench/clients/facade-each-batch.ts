/** Child process: tidemark/kafkajs (the facade on tidemark's core) with `eachBatch`. */
import * as facade from '../../src/kafkajs/index.js';
import { consumeWithKafkajsApi, type KafkajsApi } from './kafkajs-api-consume.js';

const tally = await consumeWithKafkajsApi(facade as unknown as KafkajsApi, 'facade-each-batch', 'eachBatch');
tally.report({ client: 'tidemark/kafkajs eachBatch' });
