/** One Gemini candidate's parts -> OpenAI message fields. */
import { newId } from '../common/chunks';
import { type JsonObject, arr, obj, str } from '../common/json';

export interface CandidateOutput {
  text: string[];
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: string }[];
}

export function candidateOutput(candidate: JsonObject): CandidateOutput {
  const out: CandidateOutput = { text: [], reasoning: '', toolCalls: [] };
  for (const raw of arr(obj(candidate.content).parts)) {
    const part = obj(raw);
    if (part.functionCall !== undefined) {
      const call = obj(part.functionCall);
      out.toolCalls.push({ id: newId('call_'), name: str(call.name) ?? '', arguments: JSON.stringify(call.args ?? {}) });
    } else if (part.executableCode !== undefined) {
      const code = obj(part.executableCode);
      out.text.push('```' + (str(code.language)?.toLowerCase() ?? '') + '\n' + (str(code.code) ?? '') + '\n```');
    } else if (part.codeExecutionResult !== undefined) {
      out.text.push('```output\n' + (str(obj(part.codeExecutionResult).output) ?? '') + '\n```');
    } else if (part.thought === true) {
      out.reasoning += str(part.text) ?? '';
    } else if (typeof part.text === 'string' && part.text !== '\n') {
      out.text.push(part.text);
    }
  }
  return out;
}
