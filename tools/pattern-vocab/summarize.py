import json, sys
r=json.load(open(sys.argv[1] if len(sys.argv) > 1 else 'results.json'))
for sp in ['even/odd lines','game-grouped (even/odd game id)']:
    R=r[sp]; print('==',sp,R['n_train'],R['n_test'],R['phase_n'])
    for m,v in R['models'].items(): print(' ',m,{k:v[k] for k in v if k!='val'}, v.get('val'))
    for m,v in R['loss'].items(): print('  %-52s'%m,' '.join('%s=%.4f'%(k,x) for k,x in v.items()))
    for m,v in R['diffs'].items(): print('  %-72s'%m,' '.join('%s=%.4f±%.4f'%(k,x[0],x[1]) for k,x in v.items()))
for t,rows in r['top_fine_pair_weights']:
    print(t)
    for x in rows: print('   %-28s std_w=%+.3f raw_w=%+.4f prev=%.3f mean=%.2f'%(x['feature'],x['std_w'],x['raw_w'],x['prevalence'],x['mean_count']))
