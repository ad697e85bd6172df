/** Child process: kafkajs 2.2.4 with `eachMessage` (the peer of the tidemark/kafkajs eachMessage row). */
import kafkajs from 'kafkajs';
import { consumeWithKafkajsApi, type KafkajsApi } from './kafkajs-api-consume.js';

const tally = await consumeWithKafkajsApi(kafkajs as unknown as KafkajsApi, 'kafkajs-each-message', 'eachMessage');
tally.report({ client: 'kafkajs 2.2.4 eachMessage' });
