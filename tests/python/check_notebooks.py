"""Checks that the committed notebooks (docs/notebooks/*.ipynb) carry no outputs: no cell
outputs, no execution counts, and the kernel spec "python3" (the tests execute them; outputs
are the reader's own). Usage: check_notebooks.py DIR. Strip a notebook with
  python3 -m nbconvert --clear-output --inplace docs/notebooks/NAME.ipynb"""
import json
import sys
from pathlib import Path

folder = Path(sys.argv[1])
notebooks = sorted(folder.glob("*.ipynb"))
problems = []
if not notebooks:
    problems.append(f"{folder}: no notebooks")
for path in notebooks:
    nb = json.loads(path.read_text(encoding="utf-8"))
    if nb.get("metadata", {}).get("kernelspec", {}).get("name") != "python3":
        problems.append(f"{path.name}: kernel spec is not python3")
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    if not code:
        problems.append(f"{path.name}: no code cells")
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        if cell.get("outputs"):
            problems.append(f"{path.name}: cell {i} has outputs (strip them: python3 -m nbconvert "
                            f"--clear-output --inplace {path})")
        if cell.get("execution_count") is not None:
            problems.append(f"{path.name}: cell {i} has an execution count")
print("\n".join(problems) or f"{len(notebooks)} notebooks, no outputs")
sys.exit(1 if problems else 0)
