export function attentionApi() {
  return {};
}
