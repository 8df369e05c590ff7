"""Query benchmarks at scale (synthetic corpora of 1,000, 10,000 and 100,000 articles), one module per measurement.

  build        index build time, chunks/s and peak memory per size (built once, reused afterwards)
  filters      Chroma filter latency on the collection: none, equality, date range, `row_key $in` lists
  queries      latency per route (sql, vector, hybrid) through `Assistant.ask`, per step and per question
  strategies   how the hybrid step searches the SQL-selected rows: the product's way against alternatives
  throughput   embedding throughput of the product's embedder against the model's own `encode`
  cold_start   fresh process to the first answer on the sample corpus, in phases
  memory       peak memory of `streamlit run app.py` and of a plain Python process over one size

Each runs alone (`.venv/bin/python -m bench.scale.filters [--quick] [--sizes 1000 10000]`); `python -m bench.scale`
runs them all. Results merge into bench/results/query_scale.json (by size and part; parts not run keep their
recorded figures, each with its date and commit) and bench/results/query_scale.md is rewritten from it.
`--quick` uses QUICK_SIZES with the stand-in index embedding and fewer repeats, into bench/results/quick/.
"""
