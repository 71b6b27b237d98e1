// What makes the generated model a *thinking* one, as node-llama-cpp sees a Qwen3 model: the qwen3
// architecture, a Qwen-style chat template (so `resolveChatWrapper` picks QwenChatWrapper, whose
// `<think>` segments become `thought` chunks), and the tokens that template and those segments use.
// The weights are the finishing model's bigram chain (see tiny-model.ts), here:
//   <think> "\n" Why?Pla "n\n" </think> OK,demo! </s>
// node-llama-cpp detects a thought by the *text* "<think>\n" … "\n</think>" (`<think>` is a
// user-defined token, not a special one, as in Qwen's own files), so each newline of the chain can be
// a different token that reads "\n": a bigram chain cannot emit one token with two successors.
// The prompt's own newlines are the "\n" piece, which leads to `<think>`; a prompt that ends with an
// empty thought ("</think>\n\n", thinking switched off) ends on the "\n\n" piece, which leads
// straight to the answer.

/** What the thinking model thinks, every time (bytes distinct from the answer's). */
export const THINKING_MODEL_THOUGHT = 'Why?Plan';

/** The tokens after the byte tokens and "▁", in this order, with llama.cpp's token types. */
export const THINKING_EXTRA_TOKENS: ReadonlyArray<readonly [string, number]> = [
  ['<|im_start|>', 3], // control
  ['<|im_end|>', 3],
  ['<think>', 4], // user-defined: matched whole in the prompt, printed as text
  ['</think>', 4],
  ['\n', 1], // normal pieces
  ['\n\n', 1],
  ['n\n', 1],
];

/**
 * A Qwen-style chat template written for this model: system text and tool signatures, user turns,
 * assistant turns with their tool calls, tool results inside a user turn, and the generation prompt
 * with the thinking switch. node-llama-cpp renders it beside QwenChatWrapper on its own test
 * histories and picks that wrapper only when both agree.
 */
export const THINKING_CHAT_TEMPLATE = [
  "{%- if tools %}{{- '<|im_start|>system\\n' }}",
  "{%- if messages[0].role == 'system' %}{{- messages[0].content + '\\n\\n' }}{%- endif %}",
  '{{- "# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\nYou are provided with function signatures within <tools></tools> XML tags:\\n<tools>" }}',
  '{%- for tool in tools %}{{- "\\n" }}{{- tool | tojson }}{%- endfor %}',
  '{{- "\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>}\\n</tool_call><|im_end|>\\n" }}',
  "{%- elif messages[0].role == 'system' %}{{- '<|im_start|>system\\n' + messages[0].content + '<|im_end|>\\n' }}{%- endif %}",
  '{%- for message in messages %}',
  "{%- set content = message.content if message.content is string else '' %}",
  "{%- if message.role == 'user' or (message.role == 'system' and not loop.first) %}",
  "{{- '<|im_start|>' + message.role + '\\n' + content + '<|im_end|>\\n' }}",
  "{%- elif message.role == 'assistant' %}{{- '<|im_start|>assistant\\n' + content }}",
  '{%- if message.tool_calls %}{%- for tool_call in message.tool_calls %}',
  "{%- if (loop.first and content) or (not loop.first) %}{{- '\\n' }}{%- endif %}",
  '{%- if tool_call.function %}{%- set tool_call = tool_call.function %}{%- endif %}',
  '{{- \'<tool_call>\\n{"name": "\' + tool_call.name + \'", "arguments": \' }}',
  '{%- if tool_call.arguments is string %}{{- tool_call.arguments }}{%- else %}{{- tool_call.arguments | tojson }}{%- endif %}',
  "{{- '}\\n</tool_call>' }}{%- endfor %}{%- endif %}",
  "{{- '<|im_end|>\\n' }}",
  "{%- elif message.role == 'tool' %}",
  "{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}{{- '<|im_start|>user' }}{%- endif %}",
  "{{- '\\n<tool_response>\\n' + content + '\\n</tool_response>' }}",
  "{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}{{- '<|im_end|>\\n' }}{%- endif %}",
  '{%- endif %}{%- endfor %}',
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}",
  "{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- endif %}{%- endif %}",
].join('\n');
