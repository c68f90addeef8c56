import json


def dumps(obj, level=0, width=110):
    """Readable, stable JSON: short containers and scalar lists on one line."""
    one = json.dumps(obj, ensure_ascii=False)
    pad = " " * level
    if not isinstance(obj, (dict, list)) or len(one) + level <= width or (
            isinstance(obj, dict) and "terrain" in obj and "id" in obj):
        return one
    if isinstance(obj, list) and all(not isinstance(x, (dict, list)) for x in obj):
        # wrap scalar lists
        lines, cur = [], []
        for x in obj:
            s = json.dumps(x, ensure_ascii=False)
            if cur and len(", ".join(cur + [s])) + level + 2 > width:
                lines.append(", ".join(cur))
                cur = []
            cur.append(s)
        lines.append(", ".join(cur))
        inner = (",\n" + pad + "  ").join(lines)
        return "[\n" + pad + "  " + inner + "\n" + pad + "]"
    if isinstance(obj, list):
        items = [pad + "  " + dumps(x, level + 2, width) for x in obj]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    items = [pad + "  " + json.dumps(k) + ": " + dumps(v, level + 2, width) for k, v in obj.items()]
    return "{\n" + ",\n".join(items) + "\n" + pad + "}"
